ch := make(chan int, 2)
for i := 0; i < 3; i++ {
	ch <- i
	fmt.Println("queued", i)
}
