package main

import "fmt"

func main() {
	ping := make(chan string)
	pong := make(chan string)
	done := make(chan struct{})
	go func() {
		for i := 0; i < 3; i++ {
			msg := <-ping
			fmt.Println(msg)
			pong <- "pong"
		}
		close(done)
	}()
	for i := 0; i < 3; i++ {
		ping <- "ping"
		fmt.Println(<-pong)
	}
	<-done
	fmt.Println("game over")
}
