package main

import "fmt"

func process(items []string) {
	if len(items) == 0 {
		panic("no items to process")
	}
	fmt.Println(items)
}

func main() {
	process([]string{"a"})
	process(nil)
}
