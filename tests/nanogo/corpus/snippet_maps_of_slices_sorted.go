scores := map[string][]int{
	"alice": {90, 85, 77},
	"bob":   {60, 75},
	"carol": {88},
}
names := []string{}
for n := range scores {
	names = append(names, n)
}
sort.Strings(names)
for _, n := range names {
	total := 0
	for _, s := range scores[n] {
		total += s
	}
	fmt.Printf("%-6s avg %.2f\n", n, float64(total)/float64(len(scores[n])))
}
