package main

import (
	"fmt"
	"time"
)

func main() {
	start := time.Now()
	fmt.Println("elapsed", time.Since(start) >= 0)
}
