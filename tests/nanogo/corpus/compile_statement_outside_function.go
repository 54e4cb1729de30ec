package main

import "fmt"

count := 0

func main() {
	fmt.Println(count)
}
