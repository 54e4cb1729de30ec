ch := make(chan int)
go func() {
	for i := 0; i < 3; i++ {
		ch <- i * i
	}
	close(ch)
}()
for v := range ch {
	fmt.Println("recv", v)
}
v, ok := <-ch
fmt.Println("after close:", v, ok)
