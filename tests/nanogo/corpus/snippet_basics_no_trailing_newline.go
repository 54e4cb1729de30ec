x := 6 * 7
fmt.Println("no trailing newline:", x)