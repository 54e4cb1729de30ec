package main

import "fmt"

func main() {
	ch := make(chan int, 1)
	select {
	case v := <-ch:
		fmt.Println("got", v)
	default:
		fmt.Println("empty, default")
	}
	ch <- 7
	select {
	case v := <-ch:
		fmt.Println("got", v)
	default:
		fmt.Println("default")
	}
	quit := make(chan struct{})
	data := make(chan int)
	go func() {
		for i := 0; i < 3; i++ {
			data <- i
		}
		close(quit)
	}()
	for {
		select {
		case v := <-data:
			fmt.Println("data", v)
		case <-quit:
			fmt.Println("quit")
			return
		}
	}
}
