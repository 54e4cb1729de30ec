package main

import "fmt"

func main() {
	for i := range 5 {
		fmt.Println(i)
	}
}
