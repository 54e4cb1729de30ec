package main

import "fmt"

func main() {
	sum := 0
	for i := 1; i <= 10; i++ {
		sum += i
	}
	fmt.Println("sum:", sum)
	n := 1
	for n < 100 {
		n *= 2
	}
	fmt.Println("n:", n)
	count := 0
	for {
		count++
		if count == 5 {
			break
		}
	}
	fmt.Println("count:", count)
	for i := 0; i < 10; i++ {
		if i%2 == 0 {
			continue
		}
		fmt.Print(i, " ")
	}
	fmt.Println()
	for i := range [3]int{} {
		fmt.Print(i)
	}
	fmt.Println()
}
