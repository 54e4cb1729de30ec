package main

import "fmt"

func main() {
	lines := []string{"config invalid:", "  missing key \"port\""}
	panic(fmt.Sprintf("%s\n%s", lines[0], lines[1]))
}
