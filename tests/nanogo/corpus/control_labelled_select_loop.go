package main

import "fmt"

func main() {
	data := make(chan int, 5)
	for i := 1; i <= 5; i++ {
		data <- i
	}
	close(data)
	total := 0
loop:
	for {
		select {
		case v, ok := <-data:
			if !ok {
				break loop
			}
			if v == 2 {
				continue loop
			}
			total += v
		}
	}
	fmt.Println("total", total)
	count := 0
rows:
	for r := 0; r < 4; r++ {
		switch {
		case r == 1:
			continue rows
		case r == 3:
			break rows
		}
		for c := 0; c < 4; c++ {
			if c > r {
				continue rows
			}
			count++
		}
	}
	fmt.Println("count", count)
}
