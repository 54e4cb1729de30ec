package main

import "fmt"

func (s string) Shout() string {
	return s + "!"
}

func main() {
	fmt.Println("hi")
}
