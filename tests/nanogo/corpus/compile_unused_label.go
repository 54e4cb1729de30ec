package main

import "fmt"

func main() {
outer:
	for i := 0; i < 2; i++ {
		fmt.Println(i)
	}
}
