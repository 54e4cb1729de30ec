package main

import "fmt"

func main() {
	f := func() {
		unused := "x"
	}
	f()
	fmt.Println("ok")
}
