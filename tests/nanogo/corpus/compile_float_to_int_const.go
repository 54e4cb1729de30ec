package main

import "fmt"

func main() {
	var i int = 3.5
	fmt.Println(i)
}
