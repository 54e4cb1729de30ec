package main

import "fmt"

type Speaker interface{ Speak() string }

func main() {
	var s Speaker
	fmt.Println("calling method on nil interface")
	fmt.Println(s.Speak())
}
