func greet(name string) string {
	return "Hello, " + name
}

fmt.Println(greet(42))
