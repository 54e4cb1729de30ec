ops := map[string]func(int, int) int{
	"add": func(a, b int) int { return a + b },
	"sub": func(a, b int) int { return a - b },
	"mul": func(a, b int) int { return a * b },
	"pow": func(a, b int) int {
		r := 1
		for i := 0; i < b; i++ {
			r *= a
		}
		return r
	},
}
names := make([]string, 0, len(ops))
for name := range ops {
	names = append(names, name)
}
sort.Strings(names)
for _, name := range names {
	fmt.Printf("%s(6, 3) = %d\n", name, ops[name](6, 3))
}
if f, ok := ops["div"]; !ok {
	fmt.Println("no div", f == nil)
}
