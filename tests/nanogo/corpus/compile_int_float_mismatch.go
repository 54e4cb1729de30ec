package main

import "fmt"

func main() {
	count := 3
	price := 2.5
	total := count * price
	fmt.Println(total)
}
