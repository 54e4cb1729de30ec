package main

import "fmt"

func main() {
	var p *[3]int
	fmt.Println(len(p))
	fmt.Println(p[0])
}
