package main

import "fmt"

func helper() int { return 1 }

func helper() int { return 2 }

func main() {
	fmt.Println(helper())
}
