package main

import (
	"fmt"
	"strconv"
)

func main() {
	n, err := strconv.Atoi("123")
	fmt.Println(n+1, err)
	_, err = strconv.Atoi("12a")
	fmt.Println(err)
	_, err = strconv.Atoi("99999999999999999999")
	fmt.Println(err)
	fmt.Println(strconv.Itoa(-45) + "!")
	f, err := strconv.ParseFloat("3.25", 64)
	fmt.Println(f*2, err)
	_, err = strconv.ParseFloat("x1", 64)
	fmt.Println(err)
	b, err := strconv.ParseBool("true")
	fmt.Println(b, err)
	_, err = strconv.ParseBool("yes")
	fmt.Println(err)
	i, err := strconv.ParseInt("-ff", 16, 64)
	fmt.Println(i, err)
	i, err = strconv.ParseInt("300", 10, 8)
	fmt.Println(i, err)
	u, err := strconv.ParseUint("42", 10, 32)
	fmt.Println(u, err)
	bi, _ := strconv.ParseInt("1011", 2, 64)
	fmt.Println(bi)
	fmt.Println(strconv.FormatInt(255, 2), strconv.FormatInt(-255, 16), strconv.FormatInt(35, 36))
	fmt.Println(strconv.FormatFloat(3.14159, 'f', 2, 64), strconv.FormatFloat(1e21, 'g', -1, 64), strconv.FormatFloat(2.5, 'e', 3, 64))
	fmt.Println(strconv.FormatFloat(0.1, 'f', -1, 64), strconv.FormatFloat(1.0/3, 'f', -1, 32))
	fmt.Println(strconv.Quote("hi\n\"x\""), strconv.FormatBool(false))
	uq, err := strconv.Unquote(`"a\tb"`)
	fmt.Printf("%q %v\n", uq, err)
	fmt.Println(strconv.QuoteRune('☺'), strconv.QuoteToASCII("héllo"))
}
