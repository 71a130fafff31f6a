import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { compileDtoCheck } from './compiled-dto-check';

class Item {
  @IsString()
  name!: string;
}

class Order {
  @IsInt()
  quantity!: number;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Item)
  items?: Item[];
}

class WithDefault {
  @IsInt()
  limit = 10;
}

class WithConversion {
  @Type(() => Number)
  @IsInt()
  count!: number;
}

class WithTransform {
  @Transform(({ value }) => String(value).trim())
  @IsString()
  name!: string;
}

class WithMethod {
  @IsString()
  name!: string;

  shout(): string {
    return this.name.toUpperCase();
  }
}

class NestedWithoutType {
  @ValidateNested()
  item!: Item;
}

class NestedNotCompilable {
  @ValidateNested()
  @Type(() => WithDefault)
  inner!: WithDefault;
}

class Undecorated {
  name!: string;
}

describe('compileDtoCheck', () => {
  it('compiles plain members and nested classes, and checks them', () => {
    const check = compileDtoCheck(Order)!;
    expect(check({ quantity: 2, items: [{ name: 'a' }] })).toEqual([]);
    const errors = check({ quantity: 'two', items: [{ name: 1 }], extra: true });
    expect(errors.map((error) => error.property)).toEqual(['extra', 'quantity', 'items']);
    expect(errors[2].children?.[0]).toMatchObject({ property: '0', children: [{ property: 'name', constraints: { isString: 'name must be a string' } }] });
  });

  it('builds each check once', () => {
    expect(compileDtoCheck(Order)).toBe(compileDtoCheck(Order));
  });

  it.each([
    ['a field default', WithDefault],
    ['a conversion by @Type', WithConversion],
    ['a @Transform', WithTransform],
    ['a method', WithMethod],
    ['a nested member without @Type', NestedWithoutType],
    ['a nested class that does not compile', NestedNotCompilable],
    ['no rules at all', Undecorated],
  ])('leaves a DTO with %s to the pipe', (_, dto) => {
    expect(compileDtoCheck(dto)).toBeUndefined();
  });
});
