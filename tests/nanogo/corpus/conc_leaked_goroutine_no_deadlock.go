package main

import "fmt"

func main() {
	ch := make(chan int)
	go func() {
		ch <- 1
		ch <- 2
	}()
	fmt.Println("first:", <-ch)
	fmt.Println("main returns while a goroutine is still blocked")
}
