package main

import "fmt"

func main() {
	ch := make(chan int, 1)
	close(ch)
	v, ok := <-ch
	fmt.Println(v, ok)
	ch <- 1
}
