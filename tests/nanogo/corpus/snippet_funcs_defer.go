func example() (result string) {
	defer func() { result += " + deferred" }()
	defer fmt.Println("deferred print runs first")
	return "returned"
}

fmt.Println(example())
for i := 0; i < 3; i++ {
	defer fmt.Println("main defer", i)
}
fmt.Println("end of main body")
