package main

import "fmt"

const limit = 10

func main() {
	limit = 20
	fmt.Println(limit)
}
