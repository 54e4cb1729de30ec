package main

import "fmt"

func main() {
	i := 0
	j := i++
	fmt.Println(i, j)
}
