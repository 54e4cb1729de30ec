package main

import "fmt"

func main() {
	if x := 5; true {
		fmt.Println("hi")
	}
}
