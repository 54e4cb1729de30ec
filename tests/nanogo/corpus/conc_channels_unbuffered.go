package main

import "fmt"

func producer(ch chan<- int, n int) {
	for i := 0; i < n; i++ {
		ch <- i
	}
	close(ch)
}

func main() {
	ch := make(chan int)
	go producer(ch, 5)
	sum := 0
	for v := range ch {
		fmt.Println("received", v)
		sum += v
	}
	fmt.Println("sum", sum)
	done := make(chan bool)
	go func() {
		fmt.Println("working")
		done <- true
	}()
	<-done
	fmt.Println("finished")
}
