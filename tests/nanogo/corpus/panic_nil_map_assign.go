package main

import "fmt"

func main() {
	var counts map[string]int
	fmt.Println("reading is fine:", counts["x"])
	counts["x"] = 1
}
