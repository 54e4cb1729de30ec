var i8 int8 = -3
var u16 uint16 = 7
var r rune = 'z'
var by byte = 'z'
m := map[string][]int{}
var e error
var fn func(string) (int, error)
ch := make(chan bool)
fmt.Printf("%T %T %T %T %T %T %T %T\n", i8, u16, r, by, m, e, fn, ch)
fmt.Printf("%T %T %T\n", &i8, []*int{}, struct{}{})
