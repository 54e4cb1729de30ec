package main

import "fmt"

func main() {
	for i := 0; i < 5; i++ {
		switch i {
		case 2:
			break
		default:
			fmt.Print(i)
		}
		fmt.Print(".")
	}
	fmt.Println()
	ch := make(chan int, 3)
	ch <- 1
	ch <- 2
	close(ch)
	for {
		v, ok := <-ch
		if !ok {
			break
		}
		fmt.Println("got", v)
	}
	n := 0
	for n < 100 {
		n += 7
		if n%5 == 0 {
			break
		}
	}
	fmt.Println(n)
}
