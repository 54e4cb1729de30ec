package main

import "fmt"

func main() {
	err := fmt.Errorf("config %q: %w", "app.yaml", fmt.Errorf("missing key %d", 3))
	panic(err)
}
