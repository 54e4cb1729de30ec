package main

import "fmt"

func main() {
	ch := make(chan string, 3)
	ch <- "a"
	ch <- "b"
	fmt.Println(len(ch), cap(ch))
	fmt.Println(<-ch)
	ch <- "c"
	ch <- "d"
	close(ch)
	for s := range ch {
		fmt.Print(s, " ")
	}
	fmt.Println()
	v, ok := <-ch
	fmt.Printf("%q %v\n", v, ok)
	nums := make(chan int, 10)
	for i := 0; i < 10; i++ {
		nums <- i
	}
	close(nums)
	total := 0
	for n := range nums {
		total += n
	}
	fmt.Println(total)
}
