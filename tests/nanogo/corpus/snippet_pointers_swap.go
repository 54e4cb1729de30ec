func swap(a, b *int) {
	*a, *b = *b, *a
}

x, y := 3, 9
swap(&x, &y)
fmt.Println(x, y)
p := &x
*p += 100
fmt.Println(x, *p)
var nilPtr *int
fmt.Println(nilPtr == nil)
