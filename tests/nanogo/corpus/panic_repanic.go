package main

import "fmt"

func main() {
	defer func() {
		r := recover()
		fmt.Println("recovered:", r)
		panic(fmt.Sprintf("re-panic: %v", r))
	}()
	panic("first")
}
