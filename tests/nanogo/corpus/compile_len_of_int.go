package main

import "fmt"

func main() {
	n := 12345
	fmt.Println(len(n))
}
