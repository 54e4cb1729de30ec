items := []struct {
	name  string
	price float64
}{{"coffee", 3.5}, {"sandwich", 7.25}, {"water", 1}}
for _, it := range items {
	line := fmt.Sprintf("%-10s%8.2f", it.name, it.price)
	fmt.Println("[" + line + "]")
}
fmt.Printf("%6.1f%%\n", 45.678)
fmt.Printf("%+d %+d\n", 5, -5)
fmt.Printf("%x %X %#x\n", "hello", []byte{10, 255}, 48879)
