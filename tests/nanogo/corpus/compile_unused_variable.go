package main

import "fmt"

func main() {
	count := 0
	total := 5
	fmt.Println(total)
}
