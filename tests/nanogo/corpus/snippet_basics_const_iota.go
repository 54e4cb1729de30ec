const (
	Small = iota * 10
	Medium
	Large
)
const name = "sizes"
fmt.Println(name, Small, Medium, Large)
