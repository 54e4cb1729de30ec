package main

import "fmt"

type Stringer interface{ String() string }

type ID int

func (i ID) String() string { return fmt.Sprintf("ID-%d", int(i)) }

func describe(v interface{}) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case int:
		return fmt.Sprintf("int %d", x+1)
	case int64, int32:
		return fmt.Sprintf("sized int %v", x)
	case string:
		return "string of len " + fmt.Sprint(len(x))
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case []int:
		return fmt.Sprintf("slice %d", len(x))
	case Stringer:
		return "stringer " + x.String()
	case error:
		return "error " + x.Error()
	default:
		return fmt.Sprintf("other %T", x)
	}
}

func main() {
	for _, v := range []interface{}{nil, 41, int64(5), "hey", true, []int{1, 2}, ID(9), fmt.Errorf("bad"), 3.5, map[string]int{}} {
		fmt.Println(describe(v))
	}
}
