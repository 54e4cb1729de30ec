package main

import "fmt"

type Dog struct{ Name string }

func (d Dog) Bark() string { return "woof" }

func main() {
	d := Dog{"rex"}
	fmt.Println(d.Meow())
}
