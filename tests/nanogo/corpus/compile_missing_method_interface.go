package main

import "fmt"

type Animal interface {
	Speak() string
	Legs() int
}

type Dog struct{}

func (Dog) Speak() string { return "woof" }

func main() {
	var a Animal = Dog{}
	fmt.Println(a.Speak())
}
