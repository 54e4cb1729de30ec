ch := make(chan string)
done := make(chan bool)
go func() {
	for msg := range ch {
		fmt.Println("consumed", msg)
	}
	done <- true
}()
for _, m := range []string{"alpha", "beta", "gamma"} {
	ch <- m
}
close(ch)
<-done
fmt.Println("all consumed")
