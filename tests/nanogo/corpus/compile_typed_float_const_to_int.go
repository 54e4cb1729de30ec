package main

import "fmt"

func main() {
	const c float64 = 2.5
	fmt.Println(int(c))
}
