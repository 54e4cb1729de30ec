package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Println("args:", len(os.Args))
	os.Exit(3)
}
