for i := 0; i < 3; i++ {
	result = i * 2
}
fmt.Println("done")
