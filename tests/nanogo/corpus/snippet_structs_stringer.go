type Book struct {
	Title  string
	Author string
	Year   int
}

func (b Book) String() string {
	return fmt.Sprintf("%q by %s (%d)", b.Title, b.Author, b.Year)
}

books := []Book{
	{"The Go Programming Language", "Donovan & Kernighan", 2015},
	{"Go in Action", "Kennedy", 2015},
}
for _, b := range books {
	fmt.Println(b)
}
fmt.Println(books)
fmt.Printf("%v | %s | %+v\n", books[1], books[1], books[1])
