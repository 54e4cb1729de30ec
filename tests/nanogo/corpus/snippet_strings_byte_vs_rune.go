s := "héllo"
fmt.Println(s[1], string(s[1]), []byte(s)[:3])
for i := 0; i < len(s); i++ {
	fmt.Printf("%x ", s[i])
}
fmt.Println()
r := []rune(s)
r[1] = 'e'
fmt.Println(string(r), len(r))
var b byte = 'A'
var rr rune = 'A'
fmt.Printf("%T %T %v %v\n", b, rr, b+1, rr+1)
