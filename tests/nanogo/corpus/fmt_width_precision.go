package main

import "fmt"

func main() {
	fmt.Printf("[%5d][%-5d][%05d][%+d][% d]\n", 42, 42, 42, 42, 42)
	fmt.Printf("[%8.3f][%-8.2f][%08.3f][%.0f][%+.1f]\n", 3.14159, 2.5, -3.14159, 2.5, 3.0)
	fmt.Printf("[%10s][%-10s][%.2s][%5.1s]\n", "go", "go", "golang", "xyz")
	fmt.Printf("[%*d][%-*d][%.*f]\n", 6, 7, 4, 8, 2, 3.14159)
	fmt.Printf("[%6.2f%%]\n", 12.3456)
	fmt.Printf("[%x][%#x][%#o][%#b][%08b]\n", 3054, 3054, 8, 5, 5)
	fmt.Printf("[%10.4v][%-10v]\n", 3.14159265, true)
	fmt.Printf("[%3c][%-3c]|\n", 'A', 'B')
	fmt.Printf("[%6q][%-8q]\n", "a", 'x')
	fmt.Printf("[%.3e][%10.2e]\n", 1234.5678, 0.000123)
	fmt.Printf("[%g][%g][%g][%g][%.3g][%.10g]\n", 100000.0, 1000000.0, 1e21, 0.0001, 3.14159, 1.0/3)
	fmt.Printf("[%5t][%-6v]\n", false, nil)
	fmt.Printf("[%x][% X][%#x]\n", []byte{1, 171, 255}, []byte{1, 171}, "ab")
}
