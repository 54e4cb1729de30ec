package main

import "fmt"

func main() {
	ch := make(chan int)
	fmt.Println("before")
	ch <- 1
	fmt.Println("after")
}
