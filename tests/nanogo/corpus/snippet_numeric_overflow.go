var small int8 = 127
small++
fmt.Println("int8 overflow:", small)
var u uint = 0
u--
fmt.Println("uint underflow:", u)
var b byte = 250
for i := 0; i < 10; i++ {
	b++
}
fmt.Println("byte:", b)
