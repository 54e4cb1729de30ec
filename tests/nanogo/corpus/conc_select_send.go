package main

import "fmt"

func main() {
	ch := make(chan int, 2)
	for i := 0; i < 4; i++ {
		select {
		case ch <- i:
			fmt.Println("sent", i)
		default:
			fmt.Println("full, dropped", i)
		}
	}
	close(ch)
	for v := range ch {
		fmt.Println("drained", v)
	}
	var nilCh chan int
	select {
	case v := <-nilCh:
		fmt.Println("impossible", v)
	default:
		fmt.Println("nil channel never ready")
	}
}
