x := 3
if x > 2 {
	return x
}
fmt.Println(x)
