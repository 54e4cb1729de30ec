package main

import "fmt"

func main() {
	defer func() {
		fmt.Println("outer defer runs")
	}()
	defer func() {
		var s []int
		fmt.Println(s[1])
	}()
	fmt.Println("body")
}
